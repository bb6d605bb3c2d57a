package dev.mlv.quality;

import dev.mlv.lineage.ObjectId;

/**
 * A quality gate of a refreshed view that could not be checked, because no one counted what the
 * view dropped (a Fabric refresh mlv could not re-count): neither passed nor breached.
 */
public record UncheckedGate(ObjectId view, GateBreach.Gate gate, String why) {

  /** One line naming the gate, the view and why it was not checked. */
  public String message(String viewName) {
    return "quality gate " + gate.key() + " of " + viewName + " not checked: " + why;
  }
}
