/**
 * The operations matrix ({@code weir lab --operations}): what operators do to a running job —
 * rescale, stop or cancel with a savepoint, a second runner, partitions added, retention while
 * down, a poison record, a {@code latest} start — each a cell with topics, group, transactional ids
 * and checkpoints of its own, run locally or on a cluster, its committed output counted.
 */
package io.weir.lab.operations;
