package io.weir.runtime.checkpoint;

/** An operator as a checkpoint records it, to match it against the job on restore. */
public record OperatorInfo(String uid, String name, int parallelism, int maxParallelism) {}
