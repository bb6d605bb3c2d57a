package dev.mlv.target.local;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SparkMessagesTest {

  private static <T extends Throwable> T thrownBy(T e, String className) {
    e.setStackTrace(new StackTraceElement[] {new StackTraceElement(className, "apply", "X", 1)});
    return e;
  }

  /**
   * A JVM exception out of Spark's own code is said as an engine error with a way around it, not as
   * a cast between catalyst classes (found by QA: listagg beside two count(DISTINCT ...)).
   */
  @Test
  void aClassCastInsideSparkIsAnEngineErrorNotTheSqls() {
    ClassCastException e =
        thrownBy(
            new ClassCastException(
                "class org.apache.spark.sql.catalyst.expressions.AttributeReference cannot be cast"
                    + " to class org.apache.spark.sql.catalyst.expressions.SortOrder"
                    + " (org.apache.spark.sql.catalyst.expressions.AttributeReference and"
                    + " org.apache.spark.sql.catalyst.expressions.SortOrder are in unnamed module of"
                    + " loader 'app')"),
            "org.apache.spark.sql.catalyst.optimizer.RewriteDistinctAggregates$");
    assertThat(SparkMessages.explanation(e))
        .isEqualTo(
            "Spark failed inside its own code (ClassCastException: class"
                + " org.apache.spark.sql.catalyst.expressions.AttributeReference cannot be cast to"
                + " class org.apache.spark.sql.catalyst.expressions.SortOrder): an engine error, not"
                + " an error in the SQL; the same query written another way (an aggregate moved"
                + " into a CTE, or split over two views) usually avoids it");
  }

  @Test
  void aFaultOutsideSparksCodeKeepsItsMessage() {
    NullPointerException e = thrownBy(new NullPointerException("x is null"), "com.example.Udf");
    assertThat(SparkMessages.explanation(e)).isEqualTo("x is null");
  }
}
