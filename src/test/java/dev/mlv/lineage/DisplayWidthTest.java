package dev.mlv.lineage;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DisplayWidthTest {
  @Test
  void wideCharactersTakeTwoColumnsAndCombiningMarksNone() {
    assertThat(DisplayWidth.of("silver.orders")).isEqualTo(13);
    assertThat(DisplayWidth.of("silver.売上合計")).isEqualTo(15);
    assertThat(DisplayWidth.of("cafe\u0301")).isEqualTo(4);
  }

  @Test
  void paddingIsByColumnsAndNeverCuts() {
    assertThat(DisplayWidth.padRight("売上", 6)).isEqualTo("売上  ");
    assertThat(DisplayWidth.padRight("abc", 6)).isEqualTo("abc   ");
    assertThat(DisplayWidth.padRight("売上合計", 6)).isEqualTo("売上合計");
  }
}
