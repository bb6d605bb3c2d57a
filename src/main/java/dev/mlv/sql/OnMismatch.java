package dev.mlv.sql;

/** What a constraint does with a row whose CHECK is false; Fabric's default is FAIL. */
public enum OnMismatch {
  DROP,
  FAIL
}
