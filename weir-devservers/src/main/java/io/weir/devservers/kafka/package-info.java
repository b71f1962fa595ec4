/**
 * An embedded Apache Kafka broker (KRaft, broker and controller in one process) started from the
 * jars Maven resolved, in a process of its own so that tests and the lab can kill it and restart it
 * on the same directory; {@code weir kafka start|stop} use it too.
 */
package io.weir.devservers.kafka;
