package io.weir.api.graph;

import io.weir.api.annotation.Internal;

/** One input of a transformation: where records come from and how they are partitioned. */
@Internal
public record Input(Transformation from, Partitioning partitioning) {}
