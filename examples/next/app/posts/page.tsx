/**
 * `/posts?id=<id>`, where the home's form leads: on to `/posts/<id>`.
 */
import { redirect } from 'next/navigation';

interface PostsProps {
	searchParams: Promise< Record< string, string | string[] | undefined > >;
}

export default async function Posts( { searchParams }: PostsProps ) {
	const { id } = await searchParams;
	redirect(
		typeof id === 'string' && /^[1-9]\d{0,9}$/.test( id )
			? `/posts/${ id }`
			: '/'
	);
}
