package dev.mlv.pyspark;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads Python literals from tokens, the only values Fabric accepts in {@code @fmlv} arguments:
 * strings (adjacent ones joined), numbers, {@code True}/{@code False}/{@code None}, lists, tuples
 * and dicts with string keys. Anything else, a variable or a call, is not a literal.
 */
final class Literals {
  private final List<PyToken> toks;
  private final int end;
  private int i;

  Literals(List<PyToken> toks, int from, int end) {
    this.toks = toks;
    this.i = from;
    this.end = end;
  }

  private static final PyToken EOL = new PyToken(PyToken.Kind.END, "", null, 0, 0, 0, false, -1);

  PyToken peek() {
    return peekAt(0);
  }

  PyToken peekAt(int k) {
    int j = i + k;
    if (j < end) {
      return toks.get(j);
    }
    PyToken last = toks.get(Math.max(0, end - 1));
    return new PyToken(
        EOL.kind(),
        "",
        null,
        last.offset(),
        last.line(),
        last.column() + last.text().length(),
        false,
        -1);
  }

  PyToken next() {
    PyToken t = peek();
    i++;
    return t;
  }

  Object value() throws PySparkReaderNotLiteral {
    PyToken t = peek();
    switch (t.kind()) {
      case STRING -> {
        StringBuilder sb = new StringBuilder();
        while (peek().kind() == PyToken.Kind.STRING) {
          sb.append(next().value());
        }
        return sb.toString();
      }
      case NUMBER -> {
        return number(next(), false);
      }
      case NAME -> {
        switch (t.text()) {
          case "True" -> {
            next();
            return Boolean.TRUE;
          }
          case "False" -> {
            next();
            return Boolean.FALSE;
          }
          case "None" -> {
            next();
            return null;
          }
          default -> throw new PySparkReaderNotLiteral(t);
        }
      }
      case OP -> {
        if (t.is("-") && peekAt(1).kind() == PyToken.Kind.NUMBER) {
          next();
          return number(next(), true);
        }
        if (t.is("[") || t.is("(")) {
          String close = t.is("[") ? "]" : ")";
          next();
          List<Object> out = new ArrayList<>();
          while (!peek().is(close)) {
            out.add(value());
            if (peek().is(",")) {
              next();
            } else if (!peek().is(close)) {
              throw new PySparkReaderNotLiteral(peek());
            }
          }
          next();
          return out;
        }
        if (t.is("{")) {
          next();
          Map<String, Object> out = new LinkedHashMap<>();
          while (!peek().is("}")) {
            PyToken k = peek();
            Object key = value();
            if (!(key instanceof String s) || !peek().is(":")) {
              throw new PySparkReaderNotLiteral(k);
            }
            next();
            out.put(s, value());
            if (peek().is(",")) {
              next();
            } else if (!peek().is("}")) {
              throw new PySparkReaderNotLiteral(peek());
            }
          }
          next();
          return out;
        }
        throw new PySparkReaderNotLiteral(t);
      }
      default -> throw new PySparkReaderNotLiteral(t);
    }
  }

  private static Object number(PyToken t, boolean negative) throws PySparkReaderNotLiteral {
    try {
      BigDecimal d = new BigDecimal(t.text().replace("_", ""));
      return negative ? d.negate() : d;
    } catch (NumberFormatException e) {
      throw new PySparkReaderNotLiteral(t);
    }
  }
}
