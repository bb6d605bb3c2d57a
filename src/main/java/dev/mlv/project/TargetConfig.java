package dev.mlv.project;

/** Where views are materialised: the embedded local Spark or a Fabric lakehouse. */
public sealed interface TargetConfig permits SparkTarget, FabricTarget {

  /** The key under {@code targets:} in mlv.yml. */
  String name();
}
