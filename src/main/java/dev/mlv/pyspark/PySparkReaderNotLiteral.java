package dev.mlv.pyspark;

/** A decorator argument is not a literal: the token where reading it stopped. */
final class PySparkReaderNotLiteral extends Exception {
  final transient PyToken at;

  PySparkReaderNotLiteral(PyToken at) {
    super(null, null, false, false);
    this.at = at;
  }
}
