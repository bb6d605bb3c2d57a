package dev.mlv.diag;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Found by QA: a plan file holding "garbage" was reported at 1:8, the character after the word,
 * since Jackson places a token it does not recognise at its end.
 */
class JsonProblemTest {
  private static Position at(String json) {
    JsonProcessingException e =
        catchThrowableOfType(
            JsonProcessingException.class, () -> new ObjectMapper().readTree(json));
    return JsonProblem.position(Path.of("p.json"), e);
  }

  @Test
  void anUnrecognisedTokenIsPlacedAtItsStart() {
    assertThat(at("garbage").toString()).isEqualTo("p.json:1:1");
    assertThat(at("{\n  \"formatVersion\": 1,\n  \"x\": tru\n}").toString())
        .isEqualTo("p.json:3:8");
    assertThat(at("{\"é\": nül}").toString()).isEqualTo("p.json:1:7");
  }

  @Test
  void otherProblemsKeepJacksonsPlace() {
    // A missing comma: Jackson names the start of the token found instead, "b".
    assertThat(at("{\"a\": 1 \"b\": 2}").toString()).isEqualTo("p.json:1:9");
  }
}
