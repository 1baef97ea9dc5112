import { useParams } from 'react-router';
import { ComingSoon } from '../../../components/ComingSoon';

const plannedFeatures = [
  'Photo download',
  'Edited photo upload',
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
