package io.weir.runtime.sink.file;

/**
 * Checks the paths a {@link BucketAssigner} returns, so a bucket stays a visible directory inside
 * the output directory: a path that climbed out of it, or into the hidden staging directory, would
 * commit files where no reader of the output looks, or where the sink stages its own.
 */
final class BucketPaths {
  private BucketPaths() {}

  /**
   * Returns {@code bucket} when it is a valid bucket path.
   *
   * @throws IllegalArgumentException one line naming the path and what is wrong with it
   */
  static String checked(String bucket) {
    if (bucket == null) {
      throw new IllegalArgumentException("Bucket assigner returned null instead of a bucket path");
    }
    if (bucket.isEmpty()) {
      return bucket;
    }
    if (bucket.startsWith("/")) {
      throw invalid(bucket, "it is absolute; a bucket is relative to the output directory");
    }
    if (bucket.indexOf('\0') >= 0 || bucket.indexOf('\n') >= 0) {
      throw invalid(bucket, "it holds a NUL or line feed character");
    }
    for (String name : bucket.split("/", -1)) {
      if (name.isEmpty()) {
        throw invalid(bucket, "it has an empty directory name");
      }
      if (name.equals("..")) {
        throw invalid(
            bucket, "it has a '..' directory; a bucket stays inside the output directory");
      }
      if (name.startsWith(".")) {
        throw invalid(
            bucket, "directory '" + name + "' is hidden; readers skip hidden directories");
      }
    }
    return bucket;
  }

  private static IllegalArgumentException invalid(String bucket, String reason) {
    return new IllegalArgumentException(
        "Bucket path '" + bucket.replace("\n", "\\n") + "' is invalid: " + reason);
  }
}
