package dev.mlv.sql;

import dev.mlv.diag.Position;
import java.util.List;
import java.util.Locale;

/**
 * An object name as written: 1 to 4 parts ({@code workspace.lakehouse.schema.name}), unquoted and
 * folded to lower case, since MLV names are case-insensitive. {@code text} keeps the original
 * spelling for messages and lint rules that care about case.
 */
public record Name(List<String> parts, String text, Position position) {

  public Name {
    parts = List.copyOf(parts);
  }

  /** A name written in configuration or on the command line; backticks may quote its parts. */
  public static Name of(String dotted) {
    List<String> parts =
        new Name(List.of(dotted), dotted, null)
            .written().stream().map(p -> p.toLowerCase(Locale.ROOT)).toList();
    return new Name(parts, dotted, null);
  }

  public String last() {
    return parts.get(parts.size() - 1);
  }

  public String dotted() {
    return String.join(".", parts);
  }

  @Override
  public String toString() {
    return dotted();
  }

  /**
   * A part in the form {@link #of} reads back and a selector takes whole: as it is when plain
   * (letters, digits, {@code _}, and {@code /} or {@code -} after the first), else in backticks
   * with a backtick inside doubled, so {@code clean orders} is {@code `clean orders`}.
   */
  public static String quote(String part) {
    return part.matches("[\\p{L}\\p{N}_][\\p{L}\\p{N}_/-]*")
        ? part
        : "`" + part.replace("`", "``") + "`";
  }

  /** The dotted parts as written: backticks removed (a doubled one inside them kept), case kept. */
  public List<String> written() {
    List<String> out = new java.util.ArrayList<>();
    StringBuilder cur = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '`' && quoted && i + 1 < text.length() && text.charAt(i + 1) == '`') {
        cur.append('`');
        i++;
      } else if (c == '`') {
        quoted = !quoted;
      } else if (c == '.' && !quoted) {
        out.add(cur.toString().strip());
        cur.setLength(0);
      } else {
        cur.append(c);
      }
    }
    out.add(cur.toString().strip());
    return out;
  }

  /**
   * Where part {@code index} of the written name starts (its opening backtick if quoted), so that a
   * finding about the schema of {@code lh.SALES.orders} points at {@code SALES}.
   */
  public Position partPosition(int index) {
    if (position == null || index <= 0) {
      return position;
    }
    boolean quoted = false;
    int part = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '`') {
        quoted = !quoted;
      } else if (c == '.' && !quoted && ++part == index) {
        int start = i + 1;
        while (start < text.length() && Character.isWhitespace(text.charAt(start))) {
          start++;
        }
        return position.advance(text, start);
      }
    }
    return position;
  }
}
