package io.weir.nexmark.model;

/** The three kinds of Nexmark event. */
public enum EventType {
  PERSON,
  AUCTION,
  BID
}
