/**
 * The service's settings, as {@code @ConfigurationProperties} records bound at the edge
 * (docs/CONFIGURATION.md lists every key), and the Spring configuration that turns them into the core's immutable
 * configs: the memory plan and engine, the devices and their backends.
 */
package io.proofline.service.config;
