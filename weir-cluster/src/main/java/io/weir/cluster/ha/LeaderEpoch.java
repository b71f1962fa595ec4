package io.weir.cluster.ha;

/**
 * A leader's term: the epoch number task managers compare (a message of an older epoch is refused),
 * and the version of the epoch node that this leader's ZooKeeper writes check.
 *
 * @param epoch 1 for the first leader of a cluster, one more for each leader after it
 * @param version the version of the epoch node this leader's increment produced
 */
public record LeaderEpoch(long epoch, int version) {}
