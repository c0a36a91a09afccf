package io.proofline.web;

import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.exc.InvalidFormatException;

/**
 * A base64 witness decoded as the parser reads it from the request (the text is never held). Bad base64 is a
 * mapping error of the field, so the 400 names it ({@code partitions[1].witness}) like any other wrong value.
 */
final class Base64Witness extends ValueDeserializer<byte[]> {

    @Override
    public byte[] deserialize(JsonParser p, DeserializationContext ctxt) {
        if (!p.hasToken(JsonToken.VALUE_STRING)) {
            return (byte[]) ctxt.handleUnexpectedToken(byte[].class, p);
        }
        try {
            return p.getBinaryValue();
        } catch (StreamReadException e) {
            throw InvalidFormatException.from(p, "not base64: " + e.getOriginalMessage(), null, byte[].class);
        }
    }
}
