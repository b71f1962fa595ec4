package io.weir.api.functions;

import io.weir.api.annotation.Public;
import java.io.Serializable;

/**
 * Marker for every user function. Functions are serializable so that a job can be shipped to
 * another process; in one JVM they are used as they are.
 */
@Public
public interface Function extends Serializable {}
