/**
 * Who may call what: API keys (one tenant each) for the REST API, the admin login for the console and Actuator, and
 * the login throttle.
 */
package io.proofline.web.security;
