package dev.mlv.diag;

/**
 * Another run holds the lakehouse, so this change was not made: the CLI exits with the code of a
 * skipped concurrent run, and the user runs it again once that run is over.
 */
public class BusyException extends MlvException {
  public BusyException(String ruleId, String message) {
    super(ruleId, message);
  }
}
