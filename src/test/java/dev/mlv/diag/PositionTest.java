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
  void offsetOfIsTheInverseOfAdvance() {
    String text = "x\r\ty\r\nzz\n\rw";
    for (int offset = 0; offset <= text.length(); offset++) {
      Position p = START.advance(text, offset);
      assertThat(Position.offsetOf(text, p.line(), p.column()))
          .as("offset %d", offset)
          .isEqualTo(offset);
    }
  }
}
