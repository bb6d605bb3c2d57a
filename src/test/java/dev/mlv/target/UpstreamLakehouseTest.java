package dev.mlv.target;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class UpstreamLakehouseTest {
  private static final String WS = "11111111-2222-3333-4444-555555555555";
  private static final String LH = "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee";

  @Test
  void aLakehouseAloneIsInTheTargetsWorkspaceAndAPairNamesItsOwn() {
    UpstreamLakehouse alone = UpstreamLakehouse.parse(LH);
    assertThat(alone.workspace()).isEmpty();
    assertThat(alone.in(UUID.fromString(WS)).spelled()).isEqualTo(WS + "/" + LH);

    UpstreamLakehouse pair = UpstreamLakehouse.parse(" " + WS + "/" + LH + " ");
    assertThat(pair.workspace()).isEqualTo(Optional.of(UUID.fromString(WS)));
    assertThat(pair.in(UUID.randomUUID())).isEqualTo(pair);
    assertThat(pair.spelled()).isEqualTo(WS + "/" + LH);
  }

  @Test
  void anythingElseIsRefusedWithWhatIsExpected() {
    for (String bad : new String[] {"notauuid", "1-2-3-4-5", WS + "/" + LH + "/x", "/" + LH, ""}) {
      assertThatThrownBy(() -> UpstreamLakehouse.parse(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("is not an upstream lakehouse")
          .hasMessageContaining("WORKSPACE_ID/LAKEHOUSE_ID");
    }
  }
}
