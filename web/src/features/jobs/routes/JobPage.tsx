import { useParams } from 'react-router';
import { ComingSoon } from '../../../components/ComingSoon';

const plannedFeatures = [
  'Download the original photos',
  'Upload edited photos',
  'Completion notes',
  'Messaging with the photographer',
  'Progress tracking',
];

export function JobPage() {
  const { jobId } = useParams();
  return (
    <ComingSoon
      title="Job details"
      intro={`Everything about job ${jobId ?? ''} will be in one place here.`}
      planned={plannedFeatures}
    />
  );
}
