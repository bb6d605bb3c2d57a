package dev.mlv.project;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A folder under a lakehouse's {@code Files} area, as a OneLake URL names it: {@code
 * abfss://<workspace>@<host>/<lakehouse>[.Lakehouse]/Files/<folder>}. Workspace and lakehouse
 * compare case-insensitively, as Fabric names do; the folder keeps its case and has no leading or
 * trailing slash (empty for the Files root).
 */
public record OneLakeFolder(String workspace, String lakehouse, String folder) {
  private static final Pattern URL =
      Pattern.compile(
          "abfss://([^@/]+)@([^/]+)/([^/]+?)(?:\\.Lakehouse)?/Files(?:/(.*))?",
          Pattern.CASE_INSENSITIVE);

  public OneLakeFolder {
    workspace = workspace.toLowerCase(Locale.ROOT);
    lakehouse = lakehouse.toLowerCase(Locale.ROOT);
    folder = folder.replaceAll("^/+|/+$", "").replaceAll("/{2,}", "/");
  }

  /** The folder a URL names, or empty when it is not a OneLake Files URL. */
  public static Optional<OneLakeFolder> parse(String url) {
    Matcher m = URL.matcher(url.strip());
    if (!m.matches()) {
      return Optional.empty();
    }
    return Optional.of(
        new OneLakeFolder(m.group(1), m.group(3), m.group(4) == null ? "" : m.group(4)));
  }

  /**
   * Whether the folder has a {@code .} or {@code ..} segment (also written {@code %2E}): OneLake
   * paths name folders, and a local copy would climb out of the Files area with them.
   */
  public boolean hasDotSegment() {
    for (String segment : folder.split("/")) {
      String s = segment.replaceAll("(?i)%2e", ".");
      if (s.equals(".") || s.equals("..")) {
        return true;
      }
    }
    return false;
  }

  /**
   * The part of {@code other} below this folder ({@code ""} for the folder itself), or empty when
   * {@code other} is not inside it.
   */
  public Optional<String> relativize(OneLakeFolder other) {
    if (!workspace.equals(other.workspace) || !lakehouse.equals(other.lakehouse)) {
      return Optional.empty();
    }
    if (folder.isEmpty()) {
      return Optional.of(other.folder);
    }
    if (other.folder.equals(folder)) {
      return Optional.of("");
    }
    return other.folder.startsWith(folder + "/")
        ? Optional.of(other.folder.substring(folder.length() + 1))
        : Optional.empty();
  }

  @Override
  public String toString() {
    return workspace + "/" + lakehouse + ".Lakehouse/Files/" + folder;
  }
}
