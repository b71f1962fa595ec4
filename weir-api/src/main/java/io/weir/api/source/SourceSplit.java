package io.weir.api.source;

import io.weir.api.annotation.PublicEvolving;

/**
 * One part of a source's input that a single reader reads in order (a Kafka partition, say),
 * together with the reader's position in it: the next record the reader would emit. A reader's
 * {@link SourceReader#snapshotState} returns its splits as values of this type; the task keeps them
 * in the checkpoint and gives them back to the readers of a restored job. Immutable and
 * serializable.
 */
@PublicEvolving
public interface SourceSplit extends SourcePosition {}
