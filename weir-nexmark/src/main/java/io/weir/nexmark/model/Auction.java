package io.weir.nexmark.model;

import java.io.Serializable;

/**
 * An item put up for auction by {@code seller} (a person id); prices are in cents and times in
 * epoch millis ({@code dateTime} is the event time, {@code expires} when bidding closes).
 */
public record Auction(
    long id,
    String itemName,
    String description,
    long initialBid,
    long reserve,
    long dateTime,
    long expires,
    long seller,
    long category,
    String extra)
    implements Serializable {}
