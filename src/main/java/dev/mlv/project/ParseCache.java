package dev.mlv.project;

import dev.mlv.diag.Diagnostic;
import dev.mlv.diag.Position;
import dev.mlv.diag.Severity;
import dev.mlv.sql.ColumnLists;
import dev.mlv.sql.ColumnRefs;
import dev.mlv.sql.Constraint;
import dev.mlv.sql.Name;
import dev.mlv.sql.OnMismatch;
import dev.mlv.sql.OutputNames;
import dev.mlv.sql.QueryFacts;
import dev.mlv.sql.QueryFeature;
import dev.mlv.sql.SqlStatement;
import dev.mlv.sql.ViewBody;
import dev.mlv.sql.ViewDefinition;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.CRC32;

/**
 * Remembers what parsing a definition file gave, keyed by a SHA-256 of its path and bytes, in one
 * file under the project's {@code .mlv/cache/}, so that a second {@code validate}, {@code lineage}
 * or {@code plan} on an unchanged project neither parses again nor loads Calcite. The cache is only
 * ever a shortcut: the header names the mlv build that wrote it and a CRC covers the body, and a
 * missing, stale, foreign or corrupt cache (or entry) is ignored and the file parsed as if there
 * were none.
 */
final class ParseCache {
  private static final int MAGIC = 0x6d6c7670; // "mlvp"
  private static final int FORMAT = 34; // 3: column-name case; 4: CHECK columns; 5: column refs;
  // 6: the tables of a SELECT's *; 7: their USING columns; 8: where an x::T item starts;
  // 9: a column ref named like a select alias Spark does not see there; 10: a * table's NATURAL;
  // 11: a column ref qualified by a semi join's right side; 12: a *'s EXCEPT columns;
  // 13: where each table in scope of a column ref stands; 14: and its qualifier, for every ref;
  // 15: a semi join's right side read by b.*, and an alias after PIVOT
  // 16: variant paths (v:a.b) read by Calcite, named by their last key
  // 17: VARIANT_UNCAST findings; 18: the struct fields a column reading reads
  // 19: FROM t, LATERAL f(t.x) read by Calcite; 20: a path's naming, cast paths, odd paths;
  // 21: DISTINCT s ORDER BY s.a; 22: t.s.f refs over an unaliased t; 23: more VARIANT_UNCAST;
  // 24: reserved words as path keys; 25: VARIANT_UNCAST in a CHECK, DISTINCT t.s ORDER BY t.s.a
  // 26: VARIANT_UNCAST in ROLLUP, CUBE, GROUPING SETS
  // 27: CHECKs: CONSTRAINT_COLUMN an error, MISPLACED_CALL and CONSTRAINT_TYPE
  // 28: the columns of CTEs and subqueries a column ref may read, or a * expands
  // 29: a column ref that may be a lateral alias inside an aggregate or a window
  // 30: a JOIN's USING columns as refs to each side of it; 31: the names a CHECK reads over a *
  // 32: a GROUP BY name is resolved against the FROM alone (fromOnly); 33: ORDER BY unselected;
  // 34: a GROUP BY name that is also a select alias (Ref.alias)
  static final String FILE_NAME = "parse-v" + FORMAT + ".bin";

  /** Turns the cache off: {@code -Dmlv.parseCache=false} or {@code MLV_PARSE_CACHE=off}. */
  static boolean enabled() {
    String prop = System.getProperty("mlv.parseCache");
    String env = System.getenv("MLV_PARSE_CACHE");
    return !"false".equalsIgnoreCase(prop)
        && !"off".equalsIgnoreCase(env)
        && !"false".equalsIgnoreCase(env);
  }

  private final Path file;
  private final String build;
  private final Map<String, byte[]> loaded;
  private final Map<String, byte[]> current = new ConcurrentHashMap<>();
  private volatile boolean changed;

  private ParseCache(Path file, String build, Map<String, byte[]> loaded) {
    this.file = file;
    this.build = build;
    this.loaded = loaded;
  }

  /**
   * The cache of the project at {@code root}, or empty when caching is off or mlv does not run from
   * a jar (then no build identity is known, so nothing could tell a stale entry from a good one).
   */
  static Optional<ParseCache> open(Path root) {
    if (!enabled()) {
      return Optional.empty();
    }
    Optional<String> build = buildIdentity();
    if (build.isEmpty()) {
      return Optional.empty();
    }
    Path file = root.resolve(".mlv").resolve("cache").resolve(FILE_NAME);
    return Optional.of(new ParseCache(file, build.get(), read(file, build.get())));
  }

  /**
   * The mlv version plus the size and modification time of the jar the parser classes came from:
   * any rebuild of mlv invalidates every entry.
   */
  static Optional<String> buildIdentity() {
    try {
      var source = ParseCache.class.getProtectionDomain().getCodeSource();
      if (source == null) {
        return Optional.empty();
      }
      Path jar = Path.of(source.getLocation().toURI());
      if (!Files.isRegularFile(jar)) {
        return Optional.empty();
      }
      return Optional.of(
          dev.mlv.Version.current()
              + "|"
              + Files.size(jar)
              + "|"
              + Files.getLastModifiedTime(jar).toMillis());
    } catch (IOException | URISyntaxException | SecurityException | IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /** The key of a file: its path in the project and its exact bytes. */
  static String key(Path relative, byte[] bytes) {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      md.update(relative.toString().getBytes(StandardCharsets.UTF_8));
      md.update((byte) 0);
      md.update(bytes);
      return java.util.HexFormat.of().formatHex(md.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The cached statements, facts and diagnostics of a file, or empty on a miss. */
  Optional<Entry> get(String key) {
    byte[] payload = loaded.get(key);
    if (payload == null) {
      return Optional.empty();
    }
    try {
      Entry e = decode(payload);
      current.put(key, payload);
      return Optional.of(e);
    } catch (IOException | RuntimeException e) {
      // A damaged entry is a miss: the caller parses the file and put() replaces the entry.
      return Optional.empty();
    }
  }

  void put(String key, Entry entry) {
    try {
      current.put(key, encode(entry));
      changed = true;
    } catch (IOException | RuntimeException e) {
      // An entry that cannot be written is simply not cached.
    }
  }

  /**
   * Writes the entries used by this run (entries of deleted or edited files are dropped) when
   * anything changed. Failures are ignored: a read-only project works, only without a cache.
   */
  void save() {
    if (!changed && current.size() == loaded.size()) {
      return;
    }
    try {
      ByteArrayOutputStream body = new ByteArrayOutputStream(64 * 1024);
      DataOutputStream out = new DataOutputStream(body);
      out.writeInt(current.size());
      for (var e : current.entrySet()) {
        writeString(out, e.getKey());
        out.writeInt(e.getValue().length);
        out.write(e.getValue());
      }
      out.flush();
      byte[] bytes = body.toByteArray();
      CRC32 crc = new CRC32();
      crc.update(bytes);
      ByteArrayOutputStream whole = new ByteArrayOutputStream(bytes.length + 256);
      DataOutputStream header = new DataOutputStream(whole);
      header.writeInt(MAGIC);
      header.writeInt(FORMAT);
      writeString(header, build);
      header.writeLong(crc.getValue());
      header.writeInt(bytes.length);
      header.write(bytes);
      header.flush();
      Files.createDirectories(file.getParent());
      Path tmp = Files.createTempFile(file.getParent(), FILE_NAME, ".tmp");
      try {
        Files.write(tmp, whole.toByteArray());
        try {
          Files.move(
              tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
          Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        }
      } finally {
        Files.deleteIfExists(tmp);
      }
    } catch (IOException | RuntimeException e) {
      // The cache is an optimisation; never fail a command over it.
    }
  }

  private static Map<String, byte[]> read(Path file, String build) {
    try {
      if (!Files.isRegularFile(file)) {
        return Map.of();
      }
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(Files.readAllBytes(file)));
      if (in.readInt() != MAGIC || in.readInt() != FORMAT || !build.equals(readString(in))) {
        return Map.of();
      }
      long crc = in.readLong();
      byte[] body = new byte[checkedLength(in.readInt(), in)];
      in.readFully(body);
      CRC32 actual = new CRC32();
      actual.update(body);
      if (actual.getValue() != crc) {
        return Map.of();
      }
      DataInputStream b = new DataInputStream(new ByteArrayInputStream(body));
      int n = b.readInt();
      Map<String, byte[]> entries = new HashMap<>();
      for (int i = 0; i < n; i++) {
        String key = readString(b);
        byte[] payload = new byte[checkedLength(b.readInt(), b)];
        b.readFully(payload);
        entries.put(key, payload);
      }
      return entries;
    } catch (IOException | RuntimeException | OutOfMemoryError e) {
      return Map.of();
    }
  }

  private static int checkedLength(int n, DataInputStream in) throws IOException {
    if (n < 0 || n > in.available()) {
      throw new IOException("bad length " + n);
    }
    return n;
  }

  /** What parsing one file gave. {@code facts} has one slot per statement (null when none). */
  record Entry(
      List<SqlStatement> statements,
      Map<ViewDefinition, QueryFacts> facts,
      List<Diagnostic> diags) {}

  // ---- encoding: tagged, length-prefixed, every nullable value behind a presence byte ----

  static byte[] encode(Entry entry) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(1024);
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeInt(entry.statements().size());
    for (SqlStatement st : entry.statements()) {
      writeStatement(out, st);
      QueryFacts f =
          st instanceof SqlStatement.CreateView cv ? entry.facts().get(cv.definition()) : null;
      out.writeBoolean(f != null);
      if (f != null) {
        writeFacts(out, f);
      }
    }
    writeDiagnostics(out, entry.diags());
    out.flush();
    return bytes.toByteArray();
  }

  static Entry decode(byte[] payload) throws IOException {
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload));
    int n = count(in);
    List<SqlStatement> statements = new ArrayList<>(n);
    Map<ViewDefinition, QueryFacts> facts = new HashMap<>();
    for (int i = 0; i < n; i++) {
      SqlStatement st = readStatement(in);
      statements.add(st);
      if (in.readBoolean()) {
        if (!(st instanceof SqlStatement.CreateView cv)) {
          throw new IOException("facts for a statement that is not a view");
        }
        facts.put(cv.definition(), readFacts(in));
      }
    }
    List<Diagnostic> diags = readDiagnostics(in);
    if (in.available() != 0) {
      throw new IOException("trailing bytes");
    }
    return new Entry(List.copyOf(statements), facts, diags);
  }

  private static void writeStatement(DataOutputStream out, SqlStatement st) throws IOException {
    if (st instanceof SqlStatement.CreateView cv) {
      out.writeByte(0);
      writeDefinition(out, cv.definition());
    } else if (st instanceof SqlStatement.ShowViews s) {
      out.writeByte(1);
      writeName(out, s.schema());
      writePosition(out, s.position());
    } else if (st instanceof SqlStatement.ShowCreate s) {
      out.writeByte(2);
      writeName(out, s.view());
      writePosition(out, s.position());
    } else if (st instanceof SqlStatement.Rename r) {
      out.writeByte(3);
      writeName(out, r.from());
      writeName(out, r.to());
      writePosition(out, r.position());
    } else if (st instanceof SqlStatement.Drop d) {
      out.writeByte(4);
      writeName(out, d.view());
      out.writeBoolean(d.ifExists());
      writePosition(out, d.position());
    } else if (st instanceof SqlStatement.Refresh r) {
      out.writeByte(5);
      writeName(out, r.view());
      out.writeBoolean(r.full());
      writePosition(out, r.position());
    } else if (st instanceof SqlStatement.Other o) {
      out.writeByte(6);
      writeString(out, o.sql());
      writePosition(out, o.position());
    } else {
      throw new IOException("unknown statement " + st.getClass());
    }
  }

  private static SqlStatement readStatement(DataInputStream in) throws IOException {
    int tag = in.readByte();
    return switch (tag) {
      case 0 -> new SqlStatement.CreateView(readDefinition(in));
      case 1 -> new SqlStatement.ShowViews(readName(in), readPosition(in));
      case 2 -> new SqlStatement.ShowCreate(readName(in), readPosition(in));
      case 3 -> new SqlStatement.Rename(readName(in), readName(in), readPosition(in));
      case 4 -> new SqlStatement.Drop(readName(in), in.readBoolean(), readPosition(in));
      case 5 -> new SqlStatement.Refresh(readName(in), in.readBoolean(), readPosition(in));
      case 6 -> new SqlStatement.Other(readString(in), readPosition(in));
      default -> throw new IOException("unknown statement tag " + tag);
    };
  }

  private static void writeDefinition(DataOutputStream out, ViewDefinition d) throws IOException {
    writeName(out, d.name());
    out.writeBoolean(d.orReplace());
    out.writeBoolean(d.ifNotExists());
    out.writeInt(d.constraints().size());
    for (Constraint c : d.constraints()) {
      writeString(out, c.name());
      writeString(out, c.expression());
      writeString(out, c.onMismatch() == null ? null : c.onMismatch().name());
      writePosition(out, c.position());
      writePosition(out, c.expressionPosition());
    }
    writeStrings(out, d.partitionedBy());
    writeString(out, d.comment().orElse(null));
    writeMap(out, d.properties());
    if (d.body() instanceof ViewBody.Select s) {
      out.writeByte(0);
      writeString(out, s.sql());
      writePosition(out, s.position());
      writeString(out, s.normalized());
      writeString(out, s.fingerprint());
    } else if (d.body() instanceof ViewBody.Files f) {
      out.writeByte(1);
      writeMap(out, f.options());
      writePosition(out, f.position());
      out.writeInt(f.optionPositions().size());
      for (var e : f.optionPositions().entrySet()) {
        writeString(out, e.getKey());
        writePosition(out, e.getValue());
      }
    } else {
      throw new IOException("unknown body " + d.body());
    }
    writePosition(out, d.position());
    writeString(out, d.statement());
  }

  private static ViewBody.Files readFiles(DataInputStream in) throws IOException {
    Map<String, String> options = readMap(in);
    Position position = readPosition(in);
    int n = count(in);
    Map<String, Position> positions = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      positions.put(readString(in), readPosition(in));
    }
    return new ViewBody.Files(options, position, positions);
  }

  private static ViewDefinition readDefinition(DataInputStream in) throws IOException {
    Name name = readName(in);
    boolean orReplace = in.readBoolean();
    boolean ifNotExists = in.readBoolean();
    int nc = count(in);
    List<Constraint> constraints = new ArrayList<>(nc);
    for (int i = 0; i < nc; i++) {
      String cname = readString(in);
      String expr = readString(in);
      String mismatch = readString(in);
      constraints.add(
          new Constraint(
              cname,
              expr,
              mismatch == null ? null : OnMismatch.valueOf(mismatch),
              readPosition(in),
              readPosition(in)));
    }
    List<String> partitionedBy = readStrings(in);
    Optional<String> comment = Optional.ofNullable(readString(in));
    Map<String, String> properties = readMap(in);
    int tag = in.readByte();
    ViewBody body =
        switch (tag) {
          case 0 ->
              new ViewBody.Select(readString(in), readPosition(in), readString(in), readString(in));
          case 1 -> readFiles(in);
          default -> throw new IOException("unknown body tag " + tag);
        };
    return new ViewDefinition(
        name,
        orReplace,
        ifNotExists,
        constraints,
        partitionedBy,
        comment,
        properties,
        body,
        readPosition(in),
        readString(in));
  }

  private static void writeFacts(DataOutputStream out, QueryFacts f) throws IOException {
    out.writeInt(f.tables().size());
    for (Name t : f.tables()) {
      writeName(out, t);
    }
    writeStrings(out, List.copyOf(f.functions()));
    List<String> features = new ArrayList<>();
    for (QueryFeature q : f.features()) {
      features.add(q.name());
    }
    writeStrings(out, features);
    out.writeBoolean(f.usedFallback());
    writeDiagnostics(out, f.diagnostics());
    out.writeBoolean(f.columns().isPresent());
    if (f.columns().isPresent()) {
      writeColumns(out, f.columns().get());
    }
    writeStrings(out, f.unreadableChecks());
    out.writeInt(f.columnRefs().size());
    for (ColumnRefs.Ref r : f.columnRefs()) {
      writeString(out, r.text());
      writePosition(out, r.position());
      out.writeInt(r.tables().size());
      for (Name t : r.tables()) {
        writeName(out, t);
      }
      out.writeInt(r.readings().size());
      for (ColumnRefs.Reading reading : r.readings()) {
        out.writeInt(reading.table());
        writeString(out, reading.column());
        out.writeBoolean(reading.qualified());
        writeStrings(out, reading.fields());
      }
      writeString(out, r.unseenAlias());
      writeString(out, r.semiJoin());
      out.writeInt(r.scopes().size());
      for (ColumnRefs.Scoped scoped : r.scopes()) {
        out.writeInt(scoped.level());
        writeString(out, scoped.qualifier());
        out.writeBoolean(scoped.joined());
      }
      out.writeBoolean(r.fromOnly());
      out.writeInt(r.derived().size());
      for (Map.Entry<Integer, OutputNames.Derived> d : r.derived().entrySet()) {
        out.writeInt(d.getKey());
        writeDerived(out, d.getValue());
      }
      writeString(out, r.lateral());
      writeString(out, r.using());
      out.writeBoolean(r.unselected());
      out.writeBoolean(r.alias());
    }
    out.writeInt(f.columnLists().size());
    for (ColumnLists.ColumnList l : f.columnLists()) {
      writeString(out, l.kind().name());
      writeString(out, l.alias());
      writeStrings(out, l.names());
      writePosition(out, l.position());
      out.writeInt(l.columns());
      writeName(out, l.table());
      writeString(out, l.source());
    }
    out.writeInt(f.checkColumns().size());
    for (dev.mlv.sql.CheckColumns c : f.checkColumns()) {
      writeString(out, c.constraint());
      out.writeInt(c.read().size());
      for (Map.Entry<String, Position> r : new java.util.TreeMap<>(c.read()).entrySet()) {
        writeString(out, r.getKey());
        writePosition(out, r.getValue());
      }
    }
  }

  private static void writeColumns(DataOutputStream out, OutputNames.Columns c) throws IOException {
    out.writeBoolean(c.opaque());
    out.writeInt(c.names().size());
    for (OutputNames.OutputName n : c.names()) {
      writeString(out, n.name());
      writeString(out, n.text());
      writePosition(out, n.position());
    }
    out.writeInt(c.stars().size());
    for (OutputNames.Star star : c.stars()) {
      out.writeInt(star.index());
      writeString(out, star.text());
      writePosition(out, star.position());
      out.writeInt(star.tables().size());
      for (OutputNames.Source t : star.tables()) {
        writeName(out, t.table());
        writeString(out, t.alias());
        writeStrings(out, t.using());
        out.writeBoolean(t.natural());
        out.writeBoolean(t.derived() != null);
        if (t.derived() != null) {
          writeDerived(out, t.derived());
        }
      }
      writeStrings(out, star.except());
    }
  }

  private static void writeDerived(DataOutputStream out, OutputNames.Derived d) throws IOException {
    writeString(out, d.kind());
    writeString(out, d.name());
    writeColumns(out, d.columns());
  }

  private static OutputNames.Derived readDerived(DataInputStream in) throws IOException {
    return new OutputNames.Derived(readString(in), readString(in), readColumns(in));
  }

  private static OutputNames.Columns readColumns(DataInputStream in) throws IOException {
    boolean opaque = in.readBoolean();
    int n = count(in);
    List<OutputNames.OutputName> names = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      names.add(new OutputNames.OutputName(readString(in), readString(in), readPosition(in)));
    }
    int ns = count(in);
    List<OutputNames.Star> stars = new ArrayList<>(ns);
    for (int i = 0; i < ns; i++) {
      int index = in.readInt();
      String text = readString(in);
      Position position = readPosition(in);
      int nTables = count(in);
      List<OutputNames.Source> sources = new ArrayList<>(nTables);
      for (int k = 0; k < nTables; k++) {
        sources.add(
            new OutputNames.Source(
                readName(in),
                readString(in),
                readStrings(in),
                in.readBoolean(),
                in.readBoolean() ? readDerived(in) : null));
      }
      stars.add(new OutputNames.Star(index, text, position, sources, readStrings(in)));
    }
    return new OutputNames.Columns(names, stars, opaque);
  }

  private static QueryFacts readFacts(DataInputStream in) throws IOException {
    int nt = count(in);
    List<Name> tables = new ArrayList<>(nt);
    for (int i = 0; i < nt; i++) {
      tables.add(readName(in));
    }
    Set<String> functions = new HashSet<>(readStrings(in));
    Set<QueryFeature> features = EnumSet.noneOf(QueryFeature.class);
    for (String s : readStrings(in)) {
      features.add(QueryFeature.valueOf(s));
    }
    boolean fallback = in.readBoolean();
    List<Diagnostic> diagnostics = readDiagnostics(in);
    Optional<OutputNames.Columns> columns = Optional.empty();
    if (in.readBoolean()) {
      columns = Optional.of(readColumns(in));
    }
    List<String> unreadableChecks = readStrings(in);
    int nr = count(in);
    List<ColumnRefs.Ref> refs = new ArrayList<>(nr);
    for (int i = 0; i < nr; i++) {
      String text = readString(in);
      Position position = readPosition(in);
      int nTables = count(in);
      List<Name> refTables = new ArrayList<>(nTables);
      for (int k = 0; k < nTables; k++) {
        refTables.add(readName(in));
      }
      int nReadings = count(in);
      List<ColumnRefs.Reading> readings = new ArrayList<>(nReadings);
      for (int k = 0; k < nReadings; k++) {
        readings.add(
            new ColumnRefs.Reading(
                in.readInt(), readString(in), in.readBoolean(), readStrings(in)));
      }
      String unseenAlias = readString(in);
      String semiJoin = readString(in);
      int nScopes = count(in);
      List<ColumnRefs.Scoped> scopes = new ArrayList<>(nScopes);
      for (int k = 0; k < nScopes; k++) {
        scopes.add(new ColumnRefs.Scoped(in.readInt(), readString(in), in.readBoolean()));
      }
      boolean fromOnly = in.readBoolean();
      int nDerived = count(in);
      Map<Integer, OutputNames.Derived> derived = new HashMap<>();
      for (int k = 0; k < nDerived; k++) {
        derived.put(in.readInt(), readDerived(in));
      }
      String lateral = readString(in);
      String using = readString(in);
      boolean unselected = in.readBoolean();
      boolean alias = in.readBoolean();
      refs.add(
          new ColumnRefs.Ref(
              text,
              position,
              refTables,
              readings,
              unseenAlias,
              semiJoin,
              scopes,
              fromOnly,
              derived,
              lateral,
              using,
              unselected,
              alias));
    }
    int nl = count(in);
    List<ColumnLists.ColumnList> lists = new ArrayList<>(nl);
    for (int i = 0; i < nl; i++) {
      ColumnLists.Kind kind = ColumnLists.Kind.valueOf(readString(in));
      String alias = readString(in);
      List<String> names = readStrings(in);
      Position position = readPosition(in);
      int count = in.readInt();
      Name table = readName(in);
      lists.add(
          new ColumnLists.ColumnList(kind, alias, names, position, count, table, readString(in)));
    }
    int nc = count(in);
    List<dev.mlv.sql.CheckColumns> checks = new ArrayList<>(nc);
    for (int i = 0; i < nc; i++) {
      String constraint = readString(in);
      int nRead = count(in);
      Map<String, Position> read = new HashMap<>();
      for (int k = 0; k < nRead; k++) {
        read.put(readString(in), readPosition(in));
      }
      checks.add(new dev.mlv.sql.CheckColumns(constraint, read));
    }
    return new QueryFacts(
        tables,
        functions,
        features,
        fallback,
        diagnostics,
        columns,
        unreadableChecks,
        refs,
        lists,
        checks);
  }

  private static void writeDiagnostics(DataOutputStream out, List<Diagnostic> ds)
      throws IOException {
    out.writeInt(ds.size());
    for (Diagnostic d : ds) {
      writeString(out, d.severity() == null ? null : d.severity().name());
      writeString(out, d.ruleId());
      writePosition(out, d.position());
      writeString(out, d.message());
      writeString(out, d.hint());
    }
  }

  private static List<Diagnostic> readDiagnostics(DataInputStream in) throws IOException {
    int n = count(in);
    List<Diagnostic> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      String severity = readString(in);
      out.add(
          new Diagnostic(
              severity == null ? null : Severity.valueOf(severity),
              readString(in),
              readPosition(in),
              readString(in),
              readString(in)));
    }
    return out;
  }

  private static void writeName(DataOutputStream out, Name n) throws IOException {
    out.writeBoolean(n != null);
    if (n != null) {
      writeStrings(out, n.parts());
      writeString(out, n.text());
      writePosition(out, n.position());
    }
  }

  private static Name readName(DataInputStream in) throws IOException {
    if (!in.readBoolean()) {
      return null;
    }
    return new Name(readStrings(in), readString(in), readPosition(in));
  }

  private static void writePosition(DataOutputStream out, Position p) throws IOException {
    out.writeBoolean(p != null);
    if (p != null) {
      writeString(out, p.file() == null ? null : p.file().toString());
      out.writeInt(p.line());
      out.writeInt(p.column());
    }
  }

  private static Position readPosition(DataInputStream in) throws IOException {
    if (!in.readBoolean()) {
      return null;
    }
    String file = readString(in);
    return new Position(file == null ? null : Path.of(file), in.readInt(), in.readInt());
  }

  private static void writeMap(DataOutputStream out, Map<String, String> m) throws IOException {
    out.writeInt(m.size());
    for (var e : m.entrySet()) {
      writeString(out, e.getKey());
      writeString(out, e.getValue());
    }
  }

  private static Map<String, String> readMap(DataInputStream in) throws IOException {
    int n = count(in);
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      m.put(readString(in), readString(in));
    }
    return m;
  }

  private static void writeStrings(DataOutputStream out, List<String> list) throws IOException {
    out.writeInt(list.size());
    for (String s : list) {
      writeString(out, s);
    }
  }

  private static List<String> readStrings(DataInputStream in) throws IOException {
    int n = count(in);
    List<String> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(readString(in));
    }
    return out;
  }

  private static void writeString(DataOutputStream out, String s) throws IOException {
    if (s == null) {
      out.writeInt(-1);
      return;
    }
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    out.writeInt(b.length);
    out.write(b);
  }

  private static String readString(DataInputStream in) throws IOException {
    int n = in.readInt();
    if (n == -1) {
      return null;
    }
    byte[] b = new byte[checkedLength(n, in)];
    in.readFully(b);
    return new String(b, StandardCharsets.UTF_8);
  }

  private static int count(DataInputStream in) throws IOException {
    int n = in.readInt();
    if (n < 0 || n > in.available()) {
      throw new IOException("bad count " + n);
    }
    return n;
  }
}
