package io.weir.nexmark.model;

import java.io.Serializable;

/**
 * A bid of {@code bidder} (a person id) on {@code auction} (an auction id), {@code price} in cents,
 * placed through {@code channel} from {@code url}; {@code dateTime} is the event time in epoch
 * millis.
 */
public record Bid(
    long auction, long bidder, long price, String channel, String url, long dateTime, String extra)
    implements Serializable {}
