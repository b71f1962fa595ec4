package io.weir.api.graph;

/** One input of a transformation: where records come from and how they are partitioned. */
public record Input(Transformation from, Partitioning partitioning) {}
