/**
 * A standalone ZooKeeper server for job manager high availability, run by {@code weir zookeeper
 * start} in a process of its own.
 */
package io.weir.devservers.zookeeper;
