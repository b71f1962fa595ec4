package io.weir.cluster.rpc;

import java.io.ObjectInputFilter;

/**
 * Which classes Java deserialization may create from an authenticated peer's bytes, and how deep
 * and large the object graph may be. Authentication keeps strangers out; the allowlist keeps a peer
 * that knows the secret (or a bug) from reaching classes no Weir message uses — the gadgets of
 * deserialization attacks live in libraries on the class path, never in these packages.
 */
public final class ClassAllowlist implements ObjectInputFilter {
  /** The cluster's messages: Weir's own records, strings, collections, boxed values, arrays. */
  private static final ObjectInputFilter CONTROL_MESSAGES =
      ObjectInputFilter.Config.createFilter(
          "maxdepth=32;maxrefs=1000000;io.weir.**;java.lang.*;java.util.*;java.time.*;!*");

  /** Records of a job, besides its own classes: anything of Weir and of the Java platform. */
  private static final ObjectInputFilter RECORDS =
      ObjectInputFilter.Config.createFilter("maxdepth=100;maxrefs=10000000;io.weir.**;java.**;!*");

  private final ObjectInputFilter packages;
  private final ClassLoader jobLoader;

  private ClassAllowlist(ObjectInputFilter packages, ClassLoader jobLoader) {
    this.packages = packages;
    this.jobLoader = jobLoader;
  }

  /** For control messages between the cluster's processes and its command line. */
  public static ClassAllowlist controlMessages() {
    return new ClassAllowlist(CONTROL_MESSAGES, null);
  }

  /**
   * For a job's records: also every class the job's own class loader defined (the classes of its
   * jar). A job on the class path shares Weir's loader, which also defined every library there, so
   * its records are allowed only Weir's and the platform's classes: ship a job with record classes
   * of its own as a jar.
   */
  public static ClassAllowlist records(ClassLoader jobLoader) {
    boolean ownLoader = jobLoader != null && jobLoader != ClassAllowlist.class.getClassLoader();
    return new ClassAllowlist(RECORDS, ownLoader ? jobLoader : null);
  }

  @Override
  public Status checkInput(FilterInfo info) {
    Status status = packages.checkInput(info);
    if (status != Status.REJECTED || info.serialClass() == null || jobLoader == null) {
      return status;
    }
    Class<?> type = info.serialClass();
    while (type.isArray()) {
      type = type.getComponentType();
    }
    boolean ownClass = type.getClassLoader() == jobLoader;
    // Only a class of the job's jar overrides the package list; the limits still apply.
    return ownClass && withinLimits(info) ? Status.ALLOWED : Status.REJECTED;
  }

  /**
   * Whether a record named by class rather than serialized by Java may be of {@code type}: a class
   * of Weir, of the Java platform, or of the job's own jar, as {@link #records} allows.
   */
  public boolean allowsRecordClass(Class<?> type) {
    String name = type.getName();
    return name.startsWith("io.weir.")
        || name.startsWith("java.")
        || (jobLoader != null && type.getClassLoader() == jobLoader);
  }

  private boolean withinLimits(FilterInfo info) {
    return info.depth() <= 100 && info.references() <= 10_000_000;
  }
}
