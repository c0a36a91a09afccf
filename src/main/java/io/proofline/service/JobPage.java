package io.proofline.service;

import java.util.List;

/** One page of jobs, newest first. */
public record JobPage(List<JobRecord> jobs, int page, int size, long total) {
}
