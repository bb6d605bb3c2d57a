package dev.mlv.target;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One cell of an {@code mlv sql} result as the engine typed it, so that the table and CSV can show
 * it as Spark shows it and JSON can give it its JSON type. Java {@code null} is SQL NULL, also
 * inside arrays, structs and maps.
 */
public sealed interface SqlValue {

  /** Strings, and any type mlv has no better form for (intervals, variants). */
  record Text(String value) implements SqlValue {}

  /** Integers and decimals, exact: a DECIMAL(38,18) or a BIGINT keeps every digit. */
  record Exact(BigDecimal value) implements SqlValue {}

  /** FLOAT and DOUBLE, apart from exact numbers because NaN and the infinities exist. */
  record Real(double value) implements SqlValue {}

  record Bool(boolean value) implements SqlValue {}

  record Bytes(byte[] value) implements SqlValue {
    public Bytes {
      value = value.clone();
    }

    @Override
    public byte[] value() {
      return value.clone();
    }

    // A record compares arrays by reference; two binary values are equal by their bytes.
    @Override
    public boolean equals(Object o) {
      return o instanceof Bytes b && java.util.Arrays.equals(value, b.value);
    }

    @Override
    public int hashCode() {
      return java.util.Arrays.hashCode(value);
    }

    @Override
    public String toString() {
      return "Bytes" + hex(value);
    }
  }

  /** A DATE or TIMESTAMP as ISO-8601 text ({@code 2026-11-30}, {@code 2026-11-30T10:15:00}). */
  record Temporal(String iso) implements SqlValue {}

  record Array(List<SqlValue> items) implements SqlValue {
    public Array {
      items = Collections.unmodifiableList(new ArrayList<>(items));
    }
  }

  /** A struct's fields in order; names may repeat, as Spark allows. */
  record Struct(List<String> names, List<SqlValue> values) implements SqlValue {
    public Struct {
      names = List.copyOf(names);
      values = Collections.unmodifiableList(new ArrayList<>(values));
    }
  }

  /** A map's entries in the engine's order; keys are never NULL, values may be. */
  record MapValue(List<SqlValue> keys, List<SqlValue> values) implements SqlValue {
    public MapValue {
      keys = Collections.unmodifiableList(new ArrayList<>(keys));
      values = Collections.unmodifiableList(new ArrayList<>(values));
    }
  }

  /**
   * The value as Spark's {@code show()} prints it: {@code [1, 2]}, {@code {1, z}} for a struct,
   * {@code {k -> 1}} for a map, {@code [00 FF]} for binary and NULL inside them; null for a NULL
   * cell, so each format decides how to show that.
   */
  public static String display(SqlValue v) {
    return v == null ? null : shown(v);
  }

  private static String shown(SqlValue v) {
    if (v == null) {
      return "NULL";
    }
    if (v instanceof Text t) {
      return t.value();
    } else if (v instanceof Exact e) {
      return e.value().toPlainString();
    } else if (v instanceof Real r) {
      return Double.toString(r.value());
    } else if (v instanceof Bool b) {
      return Boolean.toString(b.value());
    } else if (v instanceof Bytes b) {
      return hex(b.value());
    } else if (v instanceof Temporal t) {
      return t.iso().replace('T', ' ');
    } else if (v instanceof Array a) {
      return a.items().stream().map(SqlValue::shown).collect(joining("[", "]"));
    } else if (v instanceof Struct s) {
      return s.values().stream().map(SqlValue::shown).collect(joining("{", "}"));
    }
    MapValue m = (MapValue) v;
    List<String> entries = new ArrayList<>();
    for (int i = 0; i < m.keys().size(); i++) {
      entries.add(shown(m.keys().get(i)) + " -> " + shown(m.values().get(i)));
    }
    return entries.stream().collect(joining("{", "}"));
  }

  private static java.util.stream.Collector<CharSequence, ?, String> joining(
      String open, String close) {
    return Collectors.joining(", ", open, close);
  }

  /** Spark's form of binary: upper-case hex bytes apart, in brackets. */
  private static String hex(byte[] bytes) {
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < bytes.length; i++) {
      sb.append(i == 0 ? "" : " ").append(String.format("%02X", bytes[i]));
    }
    return sb.append(']').toString();
  }
}
