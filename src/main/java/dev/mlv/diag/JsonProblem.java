package dev.mlv.diag;

import com.fasterxml.jackson.core.JsonProcessingException;

/** What is wrong with a JSON file the user gave, in words, for a positioned diagnostic. */
public final class JsonProblem {
  private JsonProblem() {}

  /**
   * Jackson's message without its description of the source ("[Source: REDACTED ...; line: 1,
   * column: 1]"): the diagnostic says where, once, as file:line:col.
   */
  /**
   * Where the problem is in {@code file}: Jackson's location, except that for a token it does not
   * recognise it names the character after the token, which is moved back to the token's start.
   */
  public static Position position(java.nio.file.Path file, JsonProcessingException e) {
    var at = e.getLocation();
    if (at == null) {
      return Position.start(file);
    }
    int column = Math.max(1, at.getColumnNr());
    var token = UNRECOGNIZED.matcher(reason(e));
    if (token.find()) {
      String text = token.group(1);
      column = Math.max(1, column - text.codePointCount(0, text.length()));
    }
    return new Position(file, Math.max(1, at.getLineNr()), column);
  }

  private static final java.util.regex.Pattern UNRECOGNIZED =
      java.util.regex.Pattern.compile("^Unrecognized token '([^']*)'");

  public static String reason(JsonProcessingException e) {
    return e.getOriginalMessage()
        .lines()
        .findFirst()
        .orElse("")
        .replaceAll("\\s*\\((start marker at )?\\[Source:.*$", "")
        .replaceAll("\\s*at \\[Source:.*$", "");
  }
}
