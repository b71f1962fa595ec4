package io.weir.testing.windows;

import java.io.Serializable;

/** One user's click at an event time, worth {@code value}. */
record Click(String user, long time, long value) implements Serializable {}
