package dev.mlv.sql;

import dev.mlv.diag.Position;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One {@code CREATE MATERIALIZED LAKE VIEW} statement, parsed: the header is ours, the body is a
 * SELECT or a file source. {@code statement} is the full text as written; {@code properties} keep
 * their keys as written (Delta property keys are case-sensitive).
 */
public record ViewDefinition(
    Name name,
    boolean orReplace,
    boolean ifNotExists,
    List<Constraint> constraints,
    List<String> partitionedBy,
    Optional<String> comment,
    Map<String, String> properties,
    ViewBody body,
    Position position,
    String statement) {

  public ViewDefinition {
    constraints = List.copyOf(constraints);
    partitionedBy = List.copyOf(partitionedBy);
    properties = Map.copyOf(properties);
  }

  private static final java.util.regex.Pattern PARTITIONED_BY =
      java.util.regex.Pattern.compile("(?i)\\bPARTITIONED\\s+BY\\s*\\(");

  /**
   * Where the statement names partition column {@code column} (one of {@link #partitionedBy}, as
   * written): in its PARTITIONED BY list, not wherever the same word first appears; else the
   * statement's position.
   */
  public Position partitionColumnPosition(String column) {
    java.util.regex.Matcher m = PARTITIONED_BY.matcher(statement);
    if (!m.find()) {
      return position;
    }
    // The whole name, without case (the list holds it lowercased): t of (st, t) is not st's t.
    for (int at = m.end(); at + column.length() <= statement.length(); at++) {
      if (statement.regionMatches(true, at, column, 0, column.length())
          && !namePart(statement, at - 1)
          && !namePart(statement, at + column.length())) {
        return position.advance(statement, at > 0 && statement.charAt(at - 1) == '`' ? at - 1 : at);
      }
    }
    return position;
  }

  private static boolean namePart(String s, int i) {
    return i >= 0
        && i < s.length()
        && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '_');
  }

  public boolean isFileSource() {
    return body instanceof ViewBody.Files;
  }

  public boolean isPython() {
    return body instanceof ViewBody.Python;
  }

  /**
   * A fingerprint of everything that decides the view's content and shape, but not its name nor its
   * formatting: two views with equal fingerprints hold the same data, which is how {@code plan}
   * recognises a rename.
   */
  public String fingerprint() {
    StringBuilder sb = new StringBuilder();
    if (body instanceof ViewBody.Select s) {
      sb.append("select:").append(s.normalized());
    } else if (body instanceof ViewBody.Files f) {
      sb.append("files:").append(new java.util.TreeMap<>(f.options()));
    } else if (body instanceof ViewBody.Python p) {
      sb.append("python:").append(p.fingerprint());
    }
    for (Constraint c : constraints) {
      sb.append("\nconstraint:")
          .append(c.name())
          .append(':')
          .append(Normalizer.normalize(c.expression()))
          .append(':')
          .append(c.onMismatch());
    }
    sb.append("\npartitioned:").append(partitionedBy);
    comment.ifPresent(c -> sb.append("\ncomment:").append(c));
    sb.append("\nproperties:").append(new java.util.TreeMap<>(properties));
    return Fingerprint.of(sb.toString());
  }
}
