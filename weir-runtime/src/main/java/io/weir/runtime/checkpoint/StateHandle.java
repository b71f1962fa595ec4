package io.weir.runtime.checkpoint;

/**
 * Where a subtask's state of a checkpoint was stored.
 *
 * @param file the file's name relative to the checkpoint directory
 * @param length its length in bytes
 * @param checksum its CRC32
 */
public record StateHandle(String file, long length, long checksum) {}
