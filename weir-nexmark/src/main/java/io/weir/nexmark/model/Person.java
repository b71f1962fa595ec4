package io.weir.nexmark.model;

import java.io.Serializable;

/** A person who joins the auction site; {@code dateTime} is the event time in epoch millis. */
public record Person(
    long id,
    String name,
    String emailAddress,
    String creditCard,
    String city,
    String state,
    long dateTime,
    String extra)
    implements Serializable {}
