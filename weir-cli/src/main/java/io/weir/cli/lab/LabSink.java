package io.weir.cli.lab;

/** Where the lab's job writes ({@code weir lab --sink}). */
enum LabSink {
  KAFKA,
  POSTGRES
}
