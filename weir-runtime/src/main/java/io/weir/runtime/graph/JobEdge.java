package io.weir.runtime.graph;

import io.weir.api.functions.OutputTag;
import io.weir.api.graph.Partitioning;
import io.weir.api.state.StateSerializer;

/**
 * Records travelling from the tail of one task to the head of another.
 *
 * @param sideOutput the side output this edge carries, or null for the main output
 * @param serializer how the records travel between task managers, or null for the exchange's own
 *     encoding
 */
public record JobEdge(
    JobVertex source,
    JobVertex target,
    Partitioning partitioning,
    OutputTag<?> sideOutput,
    StateSerializer<?> serializer) {}
