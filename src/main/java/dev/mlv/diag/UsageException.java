package dev.mlv.diag;

/**
 * The command line itself is wrong (a selector that cannot be read, say), as opposed to the project
 * or the target: the CLI exits with the usage code and points at the command's help.
 */
public class UsageException extends MlvException {
  public UsageException(String ruleId, String message) {
    super(ruleId, message);
  }
}
