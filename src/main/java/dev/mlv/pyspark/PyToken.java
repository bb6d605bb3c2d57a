package dev.mlv.pyspark;

/**
 * One token of Python source. {@code value} is the decoded content of a string literal (null for
 * f-strings, whose value is only known at run time); {@code lineStart} marks the first token of a
 * logical line, whose {@code indent} is the column the line starts at.
 */
record PyToken(
    Kind kind,
    String text,
    String value,
    int offset,
    int line,
    int column,
    boolean lineStart,
    int indent) {

  enum Kind {
    NAME,
    NUMBER,
    STRING,
    FSTRING,
    OP,
    COMMENT,
    NEWLINE,
    END
  }

  boolean is(String op) {
    return (kind == Kind.OP || kind == Kind.NAME) && text.equals(op);
  }

  boolean isName(String name) {
    return kind == Kind.NAME && text.equals(name);
  }
}
