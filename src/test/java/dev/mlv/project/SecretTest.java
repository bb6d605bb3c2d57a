package dev.mlv.project;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SecretTest {
  @Test
  void printsMaskedButComparesByValue() {
    Secret s = new Secret("MLV_SECRET", "abc123");

    assertThat(s).hasToString("****");
    assertThat(String.valueOf(new AuthConfig.ServicePrincipal("t", "c", s)))
        .doesNotContain("abc123")
        .contains("****");
    assertThat(s.reveal()).isEqualTo("abc123");
    assertThat(s.envName()).isEqualTo("MLV_SECRET");
    assertThat(s).isEqualTo(new Secret("MLV_SECRET", "abc123"));
    assertThat(s).isNotEqualTo(new Secret("MLV_SECRET", "other"));
  }
}
