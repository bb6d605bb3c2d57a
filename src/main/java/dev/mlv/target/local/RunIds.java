package dev.mlv.target.local;

import java.security.SecureRandom;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;

/** Run ids that sort by start time and never collide: {@code 20261129-101500-3f2a9c}. */
final class RunIds {
  private static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");
  private static final SecureRandom RANDOM = new SecureRandom();

  private RunIds() {}

  static String next() {
    byte[] b = new byte[3];
    RANDOM.nextBytes(b);
    return FORMAT.format(ZonedDateTime.now(ZoneOffset.UTC)) + "-" + HexFormat.of().formatHex(b);
  }
}
