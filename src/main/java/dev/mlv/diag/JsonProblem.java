package dev.mlv.diag;

import com.fasterxml.jackson.core.JsonProcessingException;

/** What is wrong with a JSON file the user gave, in words, for a positioned diagnostic. */
public final class JsonProblem {
  private JsonProblem() {}

  /**
   * Jackson's message without its description of the source ("[Source: REDACTED ...; line: 1,
   * column: 1]"): the diagnostic says where, once, as file:line:col.
   */
  public static String reason(JsonProcessingException e) {
    return e.getOriginalMessage()
        .lines()
        .findFirst()
        .orElse("")
        .replaceAll("\\s*\\((start marker at )?\\[Source:.*$", "")
        .replaceAll("\\s*at \\[Source:.*$", "");
  }
}
