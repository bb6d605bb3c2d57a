package dev.mlv.target.local;

import dev.mlv.target.SqlValue;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Spark's collected values as {@link SqlValue}s, read by the column's type: the JVM objects {@code
 * collect()} returns (Scala collections, {@code Row}s, {@code byte[]}) print as nothing a reader
 * wants.
 */
final class SparkValues {
  private SparkValues() {}

  static SqlValue of(Object v, DataType type) {
    if (v == null) {
      return null;
    } else if (type instanceof ArrayType a) {
      List<SqlValue> items = new ArrayList<>();
      for (Object item : CollectionConverters.asJava((scala.collection.Seq<?>) v)) {
        items.add(of(item, a.elementType()));
      }
      return new SqlValue.Array(items);
    } else if (type instanceof StructType s) {
      Row r = (Row) v;
      StructField[] fields = s.fields();
      List<String> names = new ArrayList<>();
      List<SqlValue> values = new ArrayList<>();
      for (int i = 0; i < fields.length; i++) {
        names.add(fields[i].name());
        values.add(of(r.get(i), fields[i].dataType()));
      }
      return new SqlValue.Struct(names, values);
    } else if (type instanceof MapType m) {
      List<SqlValue> keys = new ArrayList<>();
      List<SqlValue> values = new ArrayList<>();
      for (Map.Entry<?, ?> e :
          CollectionConverters.asJava((scala.collection.Map<?, ?>) v).entrySet()) {
        keys.add(of(e.getKey(), m.keyType()));
        values.add(of(e.getValue(), m.valueType()));
      }
      return new SqlValue.MapValue(keys, values);
    } else if (type instanceof BinaryType) {
      return new SqlValue.Bytes((byte[]) v);
    } else if (type instanceof BooleanType) {
      return new SqlValue.Bool((Boolean) v);
    } else if (type instanceof FloatType) {
      // Through its own text, so 0.1f is 0.1 and not the double nearest the float.
      return new SqlValue.Real(Double.parseDouble(v.toString()));
    } else if (type instanceof DoubleType) {
      return new SqlValue.Real((Double) v);
    } else if (v instanceof BigDecimal d) {
      return new SqlValue.Exact(d);
    } else if (v instanceof Byte
        || v instanceof Short
        || v instanceof Integer
        || v instanceof Long) {
      return new SqlValue.Exact(BigDecimal.valueOf(((Number) v).longValue()));
    } else if (type instanceof DateType) {
      return new SqlValue.Temporal(
          v instanceof java.sql.Date d ? d.toLocalDate().toString() : ((LocalDate) v).toString());
    } else if (v instanceof java.sql.Timestamp t) {
      return new SqlValue.Temporal(
          DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(t.toLocalDateTime()));
    } else if (v instanceof LocalDateTime t) {
      return new SqlValue.Temporal(DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(t));
    } else if (v instanceof Instant t) {
      return new SqlValue.Temporal(t.toString());
    }
    return new SqlValue.Text(String.valueOf(v));
  }
}
