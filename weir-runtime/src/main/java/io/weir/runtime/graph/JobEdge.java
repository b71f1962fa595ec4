package io.weir.runtime.graph;

import io.weir.api.functions.OutputTag;
import io.weir.api.graph.Partitioning;

/**
 * Records travelling from the tail of one task to the head of another.
 *
 * @param sideOutput the side output this edge carries, or null for the main output
 */
public record JobEdge(
    JobVertex source, JobVertex target, Partitioning partitioning, OutputTag<?> sideOutput) {}
