package io.weir.runtime.state;

/**
 * Keys map to key groups, key groups to subtasks. The number of key groups is the job's max
 * parallelism and never changes for a job, so keyed state can move between subtasks whole key group
 * by key group when the parallelism changes.
 */
public final class KeyGroups {
  private KeyGroups() {}

  public static int keyGroupOf(Object key, int maxParallelism) {
    return Math.floorMod(murmur(key.hashCode()), maxParallelism);
  }

  public static int subtaskOf(int keyGroup, int maxParallelism, int parallelism) {
    return keyGroup * parallelism / maxParallelism;
  }

  public static int subtaskOfKey(Object key, int maxParallelism, int parallelism) {
    return subtaskOf(keyGroupOf(key, maxParallelism), maxParallelism, parallelism);
  }

  /** The key groups of subtask {@code index}: exactly those that {@link #subtaskOf} maps to it. */
  public static KeyGroupRange rangeOf(int index, int maxParallelism, int parallelism) {
    int start = (index * maxParallelism + parallelism - 1) / parallelism;
    int end = ((index + 1) * maxParallelism - 1) / parallelism;
    return new KeyGroupRange(start, end);
  }

  /** Murmur3's 32-bit finalizer: spreads poor {@code hashCode}s over the key groups. */
  static int murmur(int hash) {
    int h = hash * 0xcc9e2d51;
    h = Integer.rotateLeft(h, 15);
    h *= 0x1b873593;
    h = Integer.rotateLeft(h, 13);
    h = h * 5 + 0xe6546b64;
    h ^= 4;
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    h ^= h >>> 16;
    return h;
  }
}
