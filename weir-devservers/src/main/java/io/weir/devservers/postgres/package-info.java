/**
 * An embedded PostgreSQL server unpacked from the binaries Maven resolved and run in a process of
 * its own, for {@code weir postgres start|stop}, the lab and the tests of the PostgreSQL sink.
 */
package io.weir.devservers.postgres;
