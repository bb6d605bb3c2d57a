package dev.mlv.target.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class DryRunTest {

  /**
   * A view over two upstream views refreshed in the same run was told "upstream a, b is refreshed
   * first" (found by QA, on a LEFT JOIN of two silver views).
   */
  @Test
  void theReasonsVerbAgreesWithTheNumberOfUpstreamViews() {
    assertThat(DryRun.upstream(List.of("silver.a"), "is refreshed", "are refreshed"))
        .isEqualTo("upstream silver.a is refreshed first in this run");
    assertThat(DryRun.upstream(List.of("silver.a", "silver.b"), "is refreshed", "are refreshed"))
        .isEqualTo("upstream silver.a, silver.b are refreshed first in this run");
    assertThat(
            DryRun.upstream(
                List.of("silver.a", "silver.b"), "appends its new rows", "append their new rows"))
        .isEqualTo("upstream silver.a, silver.b append their new rows first in this run");
  }
}
