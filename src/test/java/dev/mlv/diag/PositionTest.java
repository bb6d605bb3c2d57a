package dev.mlv.diag;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class PositionTest {
  private static final Position START = Position.start(Path.of("v.sql"));

  @Test
  void lineFeedCarriageReturnAndBothAreEachOneLineEnd() {
    String text = "a\nb\r\nc\rd";
    assertThat(START.advance(text, text.indexOf('b'))).isEqualTo(new Position(START.file(), 2, 1));
    assertThat(START.advance(text, text.indexOf('c'))).isEqualTo(new Position(START.file(), 3, 1));
    // Old Mac files end lines with a lone carriage return: an editor shows d on line 4.
    assertThat(START.advance(text, text.indexOf('d'))).isEqualTo(new Position(START.file(), 4, 1));
  }

  @Test
  void offsetAtIsTheInverseOfAdvance() {
    String text = "x\r\ty\r\nz\uD83D\uDE80z\n\rw\u00e9\uD83D\uDE00!";
    for (int offset = 0; offset <= text.length(); offset++) {
      if (offset > 0
          && offset < text.length()
          && Character.isLowSurrogate(text.charAt(offset))
          && Character.isHighSurrogate(text.charAt(offset - 1))) {
        continue; // inside a character: no position of its own
      }
      Position p = START.advance(text, offset);
      assertThat(Position.offsetAt(text, p.line(), p.column()))
          .as("offset %d", offset)
          .isEqualTo(offset);
    }
  }

  @Test
  void columnsCountCharactersSoAnEmojiIsOneColumnAsSparkAndYamlCountIt() {
    String text =
        "-- \uD83D\uDE80\uD83D\uDE80 launch\nSELECT '\uD83D\uDE00\uD83D\uDE00' AS x, prix_unit\u00e9";
    assertThat(START.advance(text, text.indexOf("prix")))
        .isEqualTo(new Position(START.file(), 2, 19));
    // Calcite counts UTF-16 units: offsetOf reads its columns.
    assertThat(Position.offsetOf(text, 2, 21)).isEqualTo(text.indexOf("prix"));
    // Spark's parser counts code points: 18 characters into line 2 is prix.
    int line2 = text.indexOf('\n') + 1;
    assertThat(Position.afterCodePoints(text, line2, 18)).isEqualTo(text.indexOf("prix"));
  }
}
