package dev.mlv.target.local;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

class SeederSchemaTest {

  @Test
  void aReloadReportsColumnsAddedRemovedAndRetyped() {
    StructType before =
        new StructType()
            .add("id", DataTypes.IntegerType)
            .add("Price", DataTypes.IntegerType)
            .add("gone", DataTypes.StringType);
    StructType after =
        new StructType()
            .add("ID", DataTypes.IntegerType)
            .add("price", DataTypes.DoubleType)
            .add("added", DataTypes.DateType);
    assertThat(Seeder.schemaChanges(before, after))
        .containsExactly(
            "column price INT -> DOUBLE", "column added DATE added", "column gone STRING removed");
    assertThat(Seeder.schemaChanges(before, before)).isEmpty();
  }
}
