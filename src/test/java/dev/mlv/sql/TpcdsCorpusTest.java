package dev.mlv.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mlv.check.SparkFunctions;
import dev.mlv.diag.Position;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every TPC-DS query Spark ships: mlv's tables must equal both the checked-in expectation and
 * Spark's parser run now, and Calcite (not the fallback) must have read every one.
 */
class TpcdsCorpusTest {
  private static final Path CORPUS = Path.of("src/test/resources/corpus/tpcds");

  @Test
  void everyQueryAgreesWithSparkAndTheExpectation() throws IOException {
    Map<String, Set<String>> expected = expected();
    List<Path> files;
    try (Stream<Path> list = Files.list(CORPUS)) {
      files = list.filter(p -> p.toString().endsWith(".sql")).sorted().toList();
    }
    assertThat(files).hasSize(expected.size()).hasSizeGreaterThan(100);

    TableExtractor extractor = new TableExtractor();
    List<String> disagreements = new ArrayList<>();
    List<String> unknownFunctions = new ArrayList<>();
    int agree = 0;
    int fallback = 0;
    for (Path file : files) {
      String sql = Files.readString(file, StandardCharsets.UTF_8);
      String name = file.getFileName().toString();
      QueryFacts facts = extractor.extract(sql, Position.start(file));
      Set<String> ours =
          facts.tables().stream().map(Name::dotted).collect(Collectors.toCollection(TreeSet::new));
      Set<String> spark = SparkLineage.tables(sql);
      if (ours.equals(expected.get(name)) && ours.equals(spark) && facts.parsed()) {
        agree++;
      } else {
        disagreements.add(
            name + ": mlv " + ours + ", expected " + expected.get(name) + ", spark " + spark);
      }
      if (facts.usedFallback()) {
        fallback++;
      }
      facts.functions().stream()
          .filter(f -> !SparkFunctions.isBuiltin(f))
          .forEach(f -> unknownFunctions.add(name + ": " + f));
    }
    System.out.printf(
        "lineage corpus agreement: %d/%d (%.1f%%), calcite %d, fallback %d%n",
        agree, files.size(), 100.0 * agree / files.size(), files.size() - fallback, fallback);

    assertThat(disagreements).isEmpty();
    assertThat(fallback).as("TPC-DS queries that needed Spark's parser").isZero();
    assertThat(unknownFunctions).isEmpty();
  }

  @Test
  void oneExtractorServesManyThreads() throws IOException {
    TableExtractor extractor = new TableExtractor();
    List<String> sqls = new ArrayList<>();
    try (Stream<Path> list = Files.list(CORPUS)) {
      for (Path file : list.filter(p -> p.toString().endsWith(".sql")).sorted().toList()) {
        sqls.add(Files.readString(file, StandardCharsets.UTF_8));
      }
    }
    List<QueryFacts> sequential =
        sqls.stream().map(s -> extractor.extract(s, Position.start(null))).toList();
    List<QueryFacts> parallel =
        sqls.parallelStream().map(s -> extractor.extract(s, Position.start(null))).toList();
    assertThat(parallel).isEqualTo(sequential);
  }

  private static Map<String, Set<String>> expected() throws IOException {
    Map<String, Set<String>> expected = new TreeMap<>();
    for (String line : Files.readAllLines(CORPUS.resolve("EXPECTED.tsv"))) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] columns = line.split("\t", -1);
      expected.put(
          columns[0],
          columns[1].isEmpty() ? Set.of() : new TreeSet<>(Arrays.asList(columns[1].split("\\|"))));
    }
    return expected;
  }
}
