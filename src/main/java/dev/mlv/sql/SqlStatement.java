package dev.mlv.sql;

import dev.mlv.diag.Position;

/** One statement of a {@code .sql} file or of {@code mlv sql}, as far as mlv understands it. */
public sealed interface SqlStatement {

  Position position();

  record CreateView(ViewDefinition definition) implements SqlStatement {
    @Override
    public Position position() {
      return definition.position();
    }
  }

  /** {@code SHOW MATERIALIZED LAKE VIEWS [IN|FROM schema]}. */
  record ShowViews(Name schema, Position position) implements SqlStatement {}

  record ShowCreate(Name view, Position position) implements SqlStatement {}

  record Rename(Name from, Name to, Position position) implements SqlStatement {
    /**
     * The view's new id: a one-part new name keeps the view in its schema, as a rename does in
     * Spark's catalog; read in mlv.yml's default schema it would move the view out of silver.
     */
    public dev.mlv.lineage.ObjectId target(
        dev.mlv.lineage.ObjectId view, dev.mlv.lineage.NameResolver names) {
      return to.parts().size() == 1
          ? new dev.mlv.lineage.ObjectId(
              view.workspace(), view.lakehouse(), view.schema(), to.parts().get(0))
          : names.resolve(to);
    }
  }

  record Drop(Name view, boolean ifExists, Position position) implements SqlStatement {}

  record Refresh(Name view, boolean full, Position position) implements SqlStatement {}

  /** Anything else: plain Spark SQL, passed through as written. */
  record Other(String sql, Position position) implements SqlStatement {
    /** The first word, lower case, after comments and opening parentheses; "" if none. */
    public String firstWord() {
      for (Token t : Lexer.tokenize(sql)) {
        if (t.isTrivia() || t.isSymbol("(")) {
          continue;
        }
        return t.kind() == Token.Kind.WORD ? t.lower() : t.text();
      }
      return "";
    }
  }
}
