// The review page (/console/reviews/<id>): the queue itself is the shell's /reviews.
import { useParams } from '@tanstack/react-router';
import { ReviewDetailPage } from '../pages/review-detail';
import type { ConsoleArea } from './types';

function ReviewRoute() {
  const { id } = useParams({ strict: false }) as { id?: string };
  return <ReviewDetailPage key={id} id={id!} />;
}

export const reviewsArea: ConsoleArea = { routes: [{ path: '/reviews/$id', component: ReviewRoute }] };
