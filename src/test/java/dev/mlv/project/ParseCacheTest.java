package dev.mlv.project;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.Position;
import dev.mlv.sql.MlvParser;
import dev.mlv.sql.QueryFacts;
import dev.mlv.sql.SqlStatement;
import dev.mlv.sql.TableExtractor;
import dev.mlv.sql.ViewBody;
import dev.mlv.sql.ViewDefinition;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ParseCacheTest {
  private static final String SQL =
      """
      -- header
      CREATE MATERIALIZED LAKE VIEW IF NOT EXISTS silver.a (
        CONSTRAINT c1 CHECK (amount > 0) ON MISMATCH DROP,
        CONSTRAINT c2 CHECK (amount >) ON MISMATCH DROP
      )
      PARTITIONED BY (event_date)
      COMMENT 'a view'
      TBLPROPERTIES ("delta.enableChangeDataFeed" = "true")
      AS SELECT o.id, c.*, rand() AS r FROM bronze.orders o LEFT JOIN bronze.c c ON o.id = c.id
      WHERE o.id IN (SELECT id FROM bronze.other) AND o.id IN (SELECT v.id FROM (VALUES 1) AS v(id))
      ORDER BY 1 LIMIT 5;
      CREATE MATERIALIZED LAKE VIEW silver.f USING OneLake_Files OPTIONS (path 'Files/raw/', format 'csv');
      SELECT 1;
      CREATE MATERIALIZED LAKE VIEW silver.bad AS SELECT ((( FROM;
      """;

  private static ParseCache.Entry parse(String text) {
    MlvParser.Result r = MlvParser.parse(Position.start(Path.of("views/a.sql")), text);
    List<Diagnostic> diags = new ArrayList<>(r.diagnostics());
    Map<ViewDefinition, QueryFacts> facts = new HashMap<>();
    for (SqlStatement st : r.statements()) {
      if (st instanceof SqlStatement.CreateView cv
          && cv.definition().body() instanceof ViewBody.Select s) {
        QueryFacts f =
            new TableExtractor().extractView(s.sql(), s.position(), cv.definition().constraints());
        diags.addAll(f.diagnostics());
        facts.put(cv.definition(), f);
      }
    }
    return new ParseCache.Entry(r.statements(), facts, diags);
  }

  @Test
  void anEntryReadsBackEqualToWhatParsingGave() throws IOException {
    ParseCache.Entry parsed = parse(SQL);
    assertThat(parsed.statements()).hasSize(4);
    assertThat(parsed.diags()).isNotEmpty();

    // The view's columns (its * too), its unreadable CHECK and its column references travel too
    // (validate reads
    // them from here).
    assertThat(parsed.facts().values())
        .anySatisfy(
            f -> {
              assertThat(f.columns()).isPresent();
              // with the tables its * expands, which validate expands over the views upstream
              assertThat(f.columns().get().stars())
                  .singleElement()
                  .satisfies(st -> assertThat(st.tables()).hasSize(1));
              assertThat(f.unreadableChecks()).containsExactly("c2");
              // and the columns it reads, which validate checks against the views upstream
              assertThat(f.columnRefs()).extracting(r -> r.text()).contains("o.id", "c.id");
              // and its column lists, which validate counts
              assertThat(f.columnLists())
                  .singleElement()
                  .satisfies(l -> assertThat(l.columns()).isEqualTo(1));
            });
    ParseCache.Entry back = ParseCache.decode(ParseCache.encode(parsed));

    assertThat(back.statements()).isEqualTo(parsed.statements());
    assertThat(back.facts()).isEqualTo(parsed.facts());
    assertThat(back.diags()).isEqualTo(parsed.diags());
  }

  @Test
  void aDamagedEntryIsRefusedNotMisread() throws IOException {
    byte[] good = ParseCache.encode(parse(SQL));
    byte[] truncated = java.util.Arrays.copyOf(good, good.length - 3);
    byte[] longer = java.util.Arrays.copyOf(good, good.length + 1);

    assertThatThrownBy(() -> ParseCache.decode(truncated)).isInstanceOf(IOException.class);
    assertThatThrownBy(() -> ParseCache.decode(longer)).isInstanceOf(IOException.class);
  }

  @Test
  void theKeyCoversPathAndBytes() {
    byte[] a = "select 1".getBytes(StandardCharsets.UTF_8);
    byte[] b = "select 2".getBytes(StandardCharsets.UTF_8);
    assertThat(ParseCache.key(Path.of("x.sql"), a)).isEqualTo(ParseCache.key(Path.of("x.sql"), a));
    assertThat(ParseCache.key(Path.of("x.sql"), a))
        .isNotEqualTo(ParseCache.key(Path.of("y.sql"), a));
    assertThat(ParseCache.key(Path.of("x.sql"), a))
        .isNotEqualTo(ParseCache.key(Path.of("x.sql"), b));
  }
}
